/**
 * Shared vocabulary of the validation engine: rules are small pure functions registered with
 * their official identifier and severity; running one yields findings.
 */
import type { Invoice } from '../model/invoice.js';
import type { XmlDoc } from '../xml/dom.js';

/** The official severities mapped to ours: fatal → error, warning → warning, information → information. */
export type Severity = 'error' | 'warning' | 'information';

export type Syntax = 'cii' | 'ubl';

/** Rule set ids as in ../shared/docs/rules (en16931-cii, en16931-ubl, xrechnung-cii, fx-basic, br-fr-1.4-cii, ...). */
export type RuleSetId = string;

/** One reported violation. */
export interface Finding {
  /** Official rule id (e.g. "BR-CO-10", "CII-SR-001"); null for an XSD error without a stable code. */
  ruleId: string | null;
  severity: Severity;
  /** Our own words. */
  message: string;
  /** XPath-like location of the offending element, when known. */
  location?: string;
  ruleSet: RuleSetId;
}

/** What a rule can look at: the model (business rules) and the parsed document (syntax rules). */
export interface RuleContext {
  invoice: Invoice;
  doc: XmlDoc;
  syntax: Syntax;
}

/** A violation found by a rule: where, and optionally a more specific message. */
export interface Violation {
  location?: string;
  message?: string;
}

export interface Rule {
  /** Unique in a rule table; the id findings carry unless `reportId` says otherwise. */
  id: string;
  /**
   * The id findings carry when an older release names the same assert differently (Factur-X 1.08 reuses
   * one id for many asserts, so reported ids need not be unique; table ids must be).
   */
  reportId?: string;
  severity: Severity;
  /** Default message, in our own words. */
  message: string;
  /** Pure check: returns the violations (empty when the rule holds); callers never modify the array. */
  check(ctx: RuleContext): readonly Violation[];
  /**
   * The family this rule is evaluated with (a syntax rule table, a Factur-X profile's own asserts). The
   * engine then asks the family once for the rules that fired instead of calling every rule's check;
   * `check` gives the same answer for one rule on its own.
   */
  family?: RuleFamily;
}

/** Rules evaluated together in one pass per document (see Rule.family). */
export interface RuleFamily {
  /**
   * The violations of the family's rules that fired on this document, by rule id; rules that hold are
   * absent. Asked once per rule set that carries the family (a syntax table, shared by several sets,
   * caches its evaluation per document).
   */
  fired(ctx: RuleContext): ReadonlyMap<string, readonly Violation[]>;
}
