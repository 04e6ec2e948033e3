/**
 * Node flags the benchmark servers run with: the same as `npm start` (package.json), so that the
 * figures are those of the service as shipped. Keep the two in step.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];
