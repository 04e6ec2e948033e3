/** What a smart diagnostic says about a finding, in our words. */
export interface Advice {
  title: string;
  explanation: string;
  suggestion: string;
}
