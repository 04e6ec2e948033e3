/**
 * The business rules' sum() adds plain decimals as scaled integers; it must give exactly what adding
 * the same values with big.js gives (same value, same sign of zero, same errors), whatever the mix of
 * plain, unreadable and odd lexical forms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Big, parseDec, type BigValue } from '../src/model/decimal.js';
import { sum } from '../src/rules/en16931/helpers.js';
import { prng } from './test-utils.js';

/** The definition: big.js additions of every readable value, from zero. */
function referenceSum(values: (string | undefined)[]): BigValue {
  let total = new Big('0');
  for (const v of values) {
    const d = v === undefined ? undefined : parseDec(v.trim());
    if (d) total = total.plus(d);
  }
  return total;
}

function outcome(f: () => BigValue): string {
  try {
    const v = f();
    return `${v.toString()} sign ${v.s} fixed ${v.toFixed(2)}`;
  } catch (err) {
    return `throws ${(err as Error).message}`;
  }
}

const ODD = [
  '',
  ' ',
  '-',
  '.',
  '-.',
  '+1',
  '+1.5',
  '1e3',
  '1,5',
  'abc',
  'NaN',
  ' 2 ',
  '\t-3.25\n',
  '-0',
  '-0.00',
  '0',
  '.5',
  '-.5',
  '5.',
  '007.10',
  '00',
  '-000.000',
];

function randomValue(random: () => number): string | undefined {
  const r = random();
  if (r < 0.05) return undefined;
  if (r < 0.2) return ODD[Math.floor(random() * ODD.length)];
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
  const int = digits(Math.floor(random() * (random() < 0.1 ? 30 : 6)));
  const fraction = random() < 0.7 ? digits(Math.floor(random() * (random() < 0.1 ? 25 : 4))) : undefined;
  const sign = random() < 0.3 ? '-' : '';
  const text = fraction === undefined ? int : `${int}.${fraction}`;
  return /\d/.test(text) ? sign + text : ODD[Math.floor(random() * ODD.length)];
}

test('sum() equals big.js addition on hand-picked values', () => {
  const cases: (string | undefined)[][] = [
    [],
    [undefined],
    ['1.50', '2.5', '-4'],
    ['-0.00'],
    ['1', '-1'],
    ['-1', '1'],
    ['0.1', '0.2', '-0.3'],
    ['abc', '1.5'],
    ['+1'],
    ['1', '+1'],
    ['123456789012345678901234567890.123456789', '-0.000000000000000000001'],
    ['.5', '5.', '-.5'],
    ...ODD.map((v) => [v]),
    ODD,
  ];
  for (const values of cases)
    assert.equal(
      outcome(() => sum(values)),
      outcome(() => referenceSum(values)),
      JSON.stringify(values),
    );
});

test('sum() equals big.js addition on 20,000 random lists', () => {
  const random = prng(4242);
  for (let i = 0; i < 20_000; i++) {
    const values = Array.from({ length: Math.floor(random() * 12) }, () => randomValue(random));
    assert.equal(
      outcome(() => sum(values)),
      outcome(() => referenceSum(values)),
      JSON.stringify(values),
    );
  }
});
