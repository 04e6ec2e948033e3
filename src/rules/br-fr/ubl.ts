import type { XmlElement } from '../../xml/dom.js';
import type { FrAssert } from './checks.js';
import { is } from './xml.js';
export const ublRules12: readonly FrAssert[] = [];
export const ublRules14: readonly FrAssert[] = [];
export const isUblRoot = (root: XmlElement) => is(root, 'ubl:Invoice') || is(root, 'cn:CreditNote');
