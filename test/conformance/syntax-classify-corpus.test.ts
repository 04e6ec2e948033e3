/** The CII classifiers agree (see ../syntax-classify-cases.ts) on every CII invoice of the corpus. */
import { classifierTests } from '../syntax-classify-cases.js';
import { CORPUS } from './corpus.js';

classifierTests(CORPUS, 150);
