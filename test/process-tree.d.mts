/** Types of test/process-tree.mjs (plain JavaScript: test/setup.mjs, which uses it, is preloaded before tsx can load TypeScript in a worker thread). */
export interface ProcessInfo {
  pid: number;
  command: string;
}
export function descendants(root: number): ProcessInfo[];
export function killDescendants(root: number): ProcessInfo[];
