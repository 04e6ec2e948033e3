/**
 * Preloaded by `npm run check:deps` (node --import): dependency-cruiser reads TypeScript through the compiler API,
 * which TypeScript 7 (the project's compiler) no longer ships, so it would skip every .ts file and find nothing.
 * Its `typescript` (require and import alike) is pointed at the typescript-5 devDependency, as
 * test/openapi-client.test.ts does for openapi-typescript. Nothing else resolves differently.
 */
import Module, { register } from 'node:module';

const FROM_CRUISER = '/node_modules/dependency-cruiser/';
const toTs5 = (request) => (request === 'typescript' || request.startsWith('typescript/') ? `typescript-5${request.slice(10)}` : request);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  return resolveFilename.call(this, parent?.filename?.includes(FROM_CRUISER) ? toTs5(request) : request, parent, ...rest);
};

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (context.parentURL?.includes(${JSON.stringify(FROM_CRUISER)}) && (specifier === 'typescript' || specifier.startsWith('typescript/')))
    return next('typescript-5' + specifier.slice(10), context);
  return next(specifier, context);
}`)}`,
  import.meta.url,
);
