/**
 * Reading multipart/form-data uploads, bounded while streaming: a file over MAX_UPLOAD_SIZE_MB is cut
 * off at the limit (413), never buffered whole. Missing or mistyped parts answer 422 the way FastAPI
 * does (`loc: ['body', name]`).
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError, RequestShapeError, uploadTooLarge, type ValidationItem } from './errors.js';

export interface FormSpec {
  files?: Record<string, { required: boolean }>;
  fields?: Record<string, { required: boolean }>;
}

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface FormData {
  files: Record<string, UploadedFile>;
  fields: Record<string, string>;
}

function isTooLarge(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT';
}

export async function readForm(req: FastifyRequest, spec: FormSpec): Promise<FormData> {
  const fileSpec = spec.files ?? {};
  const fieldSpec = spec.fields ?? {};
  const limitMb = req.server.config.maxUploadSizeMb;
  const limitBytes = limitMb * 1024 * 1024;
  const form: FormData = { files: {}, fields: {} };
  const problems: ValidationItem[] = [];

  if (req.isMultipart()) {
    try {
      const parts = req.parts({
        limits: { fileSize: limitBytes, fieldSize: limitBytes, files: 8, fields: 32, parts: 40 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          const data = await part.toBuffer(); // throws FST_REQ_FILE_TOO_LARGE at the limit
          if (part.fieldname in fileSpec && !(part.fieldname in form.files)) {
            form.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, data };
          } else if (part.fieldname in fieldSpec && !(part.fieldname in form.fields)) {
            form.fields[part.fieldname] = data.toString('utf8'); // a text field sent as a file: take its text
          }
        } else {
          const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
          if (part.fieldname in fieldSpec && !(part.fieldname in form.fields)) {
            form.fields[part.fieldname] = value;
          } else if (part.fieldname in fileSpec) {
            problems.push({
              loc: ['body', part.fieldname],
              msg: 'Expected UploadFile, received: str',
              type: 'value_error',
              input: value.length > 64 ? `${value.slice(0, 64)}…` : value,
            });
          }
        }
      }
    } catch (err) {
      if (isTooLarge(err)) throw uploadTooLarge(limitMb);
      if (err instanceof ProblemError || err instanceof RequestShapeError) throw err;
      throw new ProblemError(400, 'Bad Request', `The multipart body could not be read: ${(err as Error).message}`);
    }
  }

  for (const [name, { required }] of Object.entries(fileSpec)) {
    if (required && !(name in form.files) && !problems.some((p) => p.loc[1] === name)) {
      problems.push({ loc: ['body', name], msg: 'Field required', type: 'missing' });
    }
  }
  for (const [name, { required }] of Object.entries(fieldSpec)) {
    if (required && !(name in form.fields)) problems.push({ loc: ['body', name], msg: 'Field required', type: 'missing' });
  }
  if (problems.length > 0) throw new RequestShapeError(problems);
  return form;
}

/** Parse an optional boolean form field the way FastAPI does ("true"/"false"/"1"/"0"/"yes"/"no"/"on"/"off"). */
export function formBoolean(form: FormData, name: string, fallback: boolean): boolean {
  const raw = form.fields[name];
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on', 't', 'y'].includes(v)) return true;
  if (['false', '0', 'no', 'off', 'f', 'n'].includes(v)) return false;
  throw new RequestShapeError([{ loc: ['body', name], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing', input: raw }]);
}
