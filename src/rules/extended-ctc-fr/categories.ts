/** The VAT categories the EXTENDED-CTC-FR rules are written for: the infix of their ids and the UNTDID 5305 code. */
export interface Category {
  /** Rule id infix (S, Z, E, AE, IC, G, O, AF, AG). */
  name: string;
  code: string;
}

export const CATEGORIES: readonly Category[] = [
  { name: 'S', code: 'S' },
  { name: 'Z', code: 'Z' },
  { name: 'E', code: 'E' },
  { name: 'AE', code: 'AE' },
  { name: 'IC', code: 'K' },
  { name: 'G', code: 'G' },
  { name: 'O', code: 'O' },
  { name: 'AF', code: 'L' },
  { name: 'AG', code: 'M' },
];
