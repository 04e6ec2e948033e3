/**
 * The EN 16931 rule sets: the same business rule definitions registered for both syntaxes, each
 * under its own rule set id (en16931-cii, en16931-ubl) with the artefact's severity for that syntax.
 */
import { registerRuleSet } from '../engine.js';
import type { Rule } from '../types.js';
import { codeListRules } from './codes.js';
import { conditionRules, decimalRules, splitPaymentRules } from './conditions.js';
import { coreRules } from './core.js';
import { forSyntax, type RuleDef } from './helpers.js';
import { vatCategoryRules } from './vat.js';

export const EN16931_RULE_DEFS: readonly RuleDef[] = [
  ...coreRules,
  ...conditionRules,
  ...decimalRules,
  ...vatCategoryRules,
  ...splitPaymentRules,
  ...codeListRules,
];

export const EN16931_CII = 'en16931-cii';
export const EN16931_UBL = 'en16931-ubl';

export const en16931CiiBusinessRules: Rule[] = forSyntax(EN16931_RULE_DEFS, 'cii');
export const en16931UblBusinessRules: Rule[] = forSyntax(EN16931_RULE_DEFS, 'ubl');
