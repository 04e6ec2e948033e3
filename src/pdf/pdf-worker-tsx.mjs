// Worker entry used only when running the TypeScript sources through tsx (tests, benchmarks):
// worker threads do not inherit tsx's loader, so register it here, then load the real worker.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./pdf-worker.ts');
export default mod.default;
