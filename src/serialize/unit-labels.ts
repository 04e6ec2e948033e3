/**
 * Human-readable labels for the UN/ECE Recommendation 20/21 unit codes seen most on invoices.
 * Codes not listed get no label (null), never a guess.
 */
const LABELS: Record<string, string> = {
  C62: 'unit',
  H87: 'piece',
  EA: 'each',
  XPP: 'piece',
  XBX: 'box',
  XPK: 'package',
  XPA: 'packet',
  SET: 'set',
  PR: 'pair',
  HUR: 'hour',
  MIN: 'minute',
  SEC: 'second',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  KGM: 'kilogram',
  GRM: 'gram',
  TNE: 'tonne',
  MTR: 'metre',
  KMT: 'kilometre',
  CMT: 'centimetre',
  MMT: 'millimetre',
  MTK: 'square metre',
  MTQ: 'cubic metre',
  LTR: 'litre',
  MLT: 'millilitre',
  KWH: 'kilowatt hour',
  KWT: 'kilowatt',
  LS: 'lump sum',
  P1: 'percent',
  E48: 'service unit',
  '1I': 'fixed rate',
  ZZ: 'mutually defined',
};

export function unitLabel(code: string): string | null {
  return LABELS[code] ?? null;
}
