/** Every route module of the service; app.ts registers them in this order. */
import type { FastifyInstance } from 'fastify';
import convert from './convert.js';
import extract from './extract.js';
import merge from './merge.js';
import operations from './operations.js';
import render from './render.js';
import serialize from './serialize.js';
import status from './status.js';
import transform from './transform.js';
import ui from './ui.js';
import validate from './validate.js';
import xml from './xml.js';

export const routeModules: ((app: FastifyInstance) => Promise<void>)[] = [
  operations,
  extract,
  serialize,
  xml,
  validate,
  convert,
  merge,
  render,
  transform,
  ui,
  status,
];
