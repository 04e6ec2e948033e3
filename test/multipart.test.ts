/**
 * The multipart/form-data reader (src/http/multipart.ts): RFC 7578 bodies as browsers, curl and
 * HTTP libraries send them, and the answers for bodies that are not multipart or too large.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundaryOf, parseMultipart, PART_LIMITS } from '../src/http/multipart.js';
import { communityApp, multipart } from './helpers.js';
import { fixturePath } from './fixtures.js';
import { readFileSync } from 'node:fs';

const CRLF = '\r\n';

test('parts: names, filenames, types and contents, byte for byte', () => {
  const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]); // contains CRLF-- but not the boundary
  const { payload, headers } = multipart([
    { name: 'file', value: pdf, filename: 'rechnung.pdf', contentType: 'application/pdf' },
    { name: 'rules', value: 'br_fr_ctc' },
    { name: 'empty', value: '' },
  ]);
  const parts = parseMultipart(payload, boundaryOf(headers['content-type'])!);
  assert.equal(parts.length, 3);
  assert.deepEqual(
    { ...parts[0], data: [...parts[0].data] },
    { name: 'file', filename: 'rechnung.pdf', mimetype: 'application/pdf', data: [...pdf] },
  );
  assert.deepEqual({ ...parts[1], data: parts[1].data.toString() }, { name: 'rules', mimetype: 'text/plain', data: 'br_fr_ctc' });
  assert.equal(parts[2].data.length, 0);
});

test('boundary parameter: quoted, unquoted, among other parameters, absent', () => {
  assert.equal(boundaryOf('multipart/form-data; boundary=abc123'), 'abc123');
  assert.equal(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b:c"'), 'a b:c');
  assert.equal(boundaryOf('Multipart/Form-Data;BOUNDARY=----WebKitFormBoundary7MA4YWxkTrZu0gW'), '----WebKitFormBoundary7MA4YWxkTrZu0gW');
  assert.equal(boundaryOf('multipart/form-data'), undefined);
});

test('a preamble, transport padding, RFC 5987 filename* and an epilogue are understood', () => {
  const body = Buffer.from(
    `This is a preamble${CRLF}--xyz  ${CRLF}` +
      `Content-Disposition: form-data; name="file"; filename="fallback.xml"; filename*=UTF-8''R%C3%A9sum%C3%A9.xml${CRLF}` +
      `Content-Type: application/xml; charset=utf-8${CRLF}${CRLF}<a/>${CRLF}--xyz--${CRLF}epilogue`,
  );
  const [part] = parseMultipart(body, 'xyz');
  assert.equal(part.filename, 'Résumé.xml');
  assert.equal(part.mimetype, 'application/xml');
  assert.equal(part.data.toString(), '<a/>');
});

test('a file part without Content-Type is application/octet-stream; a part without a form name is ignored', () => {
  const body = Buffer.from(
    `--b${CRLF}Content-Disposition: form-data; name="file"; filename="x.bin"${CRLF}${CRLF}abc${CRLF}` +
      `--b${CRLF}Content-Disposition: attachment; filename="stray.txt"${CRLF}${CRLF}zzz${CRLF}--b--`,
  );
  const parts = parseMultipart(body, 'b');
  assert.equal(parts.length, 1);
  assert.equal(parts[0].mimetype, 'application/octet-stream');
  assert.equal(parts[0].data.toString(), 'abc');
});

test('bodies that are not multipart are refused', () => {
  assert.throws(() => parseMultipart(Buffer.from('no boundary here'), 'b'), /no opening boundary/);
  assert.throws(
    () => parseMultipart(Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="a"${CRLF}${CRLF}value, never closed`), 'b'),
    /no closing boundary/,
  );
  assert.throws(() => parseMultipart(Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="a"`), 'b'), /unterminated part headers/);
  assert.throws(() => parseMultipart(Buffer.from(`--bXY${CRLF}${CRLF}x${CRLF}--b--`), 'b'), /malformed boundary line/);
});

test('over HTTP: a malformed multipart body is 400 ProblemDetails, a missing boundary too', async () => {
  const app = await communityApp();
  const broken = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
    payload: `--zzz${CRLF}Content-Disposition: form-data; name="file"; filename="a.xml"${CRLF}${CRLF}<a/>`,
  });
  assert.equal(broken.statusCode, 400);
  assert.match(String(broken.headers['content-type']), /^application\/problem\+json/);
  assert.match(broken.json().detail, /multipart body could not be read: no closing boundary/);
  const noBoundary = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    headers: { 'content-type': 'multipart/form-data' },
    payload: 'x',
  });
  assert.equal(noBoundary.statusCode, 400);
  assert.match(noBoundary.json().detail, /no boundary parameter/);
  await app.close();
});

test('over HTTP: too many parts is 413 naming the part limit hit, not the size limit (5,000 tiny parts, 9 files, 33 fields)', async () => {
  const app = await communityApp();
  const tiny = Array.from({ length: 5_000 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
  const res = await app.inject({ method: 'POST', url: '/v1/extract', ...multipart(tiny) });
  assert.equal(res.statusCode, 413);
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  const body = res.json();
  assert.equal(body.code, 'TOO_MANY_PARTS');
  assert.equal(body.limit, 'parts');
  assert.equal(body.max, PART_LIMITS.parts);
  assert.match(body.detail, new RegExp(`more than ${PART_LIMITS.parts} parts`));
  assert.doesNotMatch(body.detail, /MB/, 'a count limit is not told as a size limit');

  const files = Array.from({ length: PART_LIMITS.files + 1 }, (_, i) => ({ name: `f${i}`, value: 'x', filename: `${i}.xml` }));
  const tooManyFiles = (await app.inject({ method: 'POST', url: '/v1/extract', ...multipart(files) })).json();
  assert.equal(tooManyFiles.limit, 'files');
  assert.match(tooManyFiles.detail, new RegExp(`more than ${PART_LIMITS.files} file parts`));

  const fields = Array.from({ length: PART_LIMITS.fields + 1 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
  const tooManyFields = (await app.inject({ method: 'POST', url: '/v1/extract', ...multipart(fields) })).json();
  assert.equal(tooManyFields.limit, 'fields');
  assert.match(tooManyFields.detail, new RegExp(`more than ${PART_LIMITS.fields} text fields`));
  await app.close();
});

test('over HTTP: a file just under MAX_UPLOAD_SIZE_MB is read, one just over is 413, also when streamed without Content-Length', async () => {
  const app = await communityApp({ MAX_UPLOAD_SIZE_MB: '1' });
  const xml = readFileSync(fixturePath('cen/examples/cii/CII_example1.xml'));
  // Pad with whitespace after the root element: still the same invoice, and exactly 1 MB.
  const exact = Buffer.concat([xml, Buffer.alloc(1024 * 1024 - xml.length, 0x20)]);
  const ok = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    ...multipart([{ name: 'file', value: exact, filename: 'a.xml', contentType: 'application/xml' }]),
  });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().invoice_json.invoice_number, '12115118');

  const over = Buffer.concat([exact, Buffer.from(' ')]);
  const tooLarge = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    ...multipart([{ name: 'file', value: over, filename: 'a.xml' }]),
  });
  assert.equal(tooLarge.statusCode, 413);
  assert.equal(tooLarge.json().code, 'UPLOAD_TOO_LARGE');

  // Far over the body limit, sent as a stream without Content-Length: cut off while reading.
  const { Readable } = await import('node:stream');
  const huge = multipart([{ name: 'file', value: Buffer.alloc(3 * 1024 * 1024, 0x41), filename: 'a.xml' }]);
  const streamed = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    headers: huge.headers,
    payload: Readable.from([huge.payload.subarray(0, 1_000_000), huge.payload.subarray(1_000_000)]),
  });
  assert.equal(streamed.statusCode, 413);
  assert.equal(streamed.json().code, 'UPLOAD_TOO_LARGE');
  assert.equal((await app.inject({ url: '/health' })).statusCode, 200);
  await app.close();
});
