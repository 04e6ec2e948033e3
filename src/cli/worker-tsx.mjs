// Worker entry used only when the CLI runs from the TypeScript sources through tsx (tests, `npm exec einvoice`
// without a build): worker threads do not inherit tsx's loader, so register it here, then load the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
