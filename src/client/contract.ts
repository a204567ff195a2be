/**
 * Build-time proof that the client's published types (types.ts) are the server's: the compiler fails here
 * when the query result schema, the document kinds or the manifest drift apart. Nothing imports this module
 * at run time.
 */
import type { AgentManifest as ServerManifest } from '../catalog/manifest.js';
import type { ContentType } from '../docs/parse.js';
import type { QueryResult as IndexQueryResult, Source as IndexSource } from '../docs/types.js';
import type { Plan } from '../auth/types.js';
import type { AgentManifest, DocumentContentType, MeResponse, QueryResult, Source } from './types.js';

/** True only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- never used: the compiler checks it
type ContractChecks = [
  Expect<Equal<QueryResult, IndexQueryResult>>,
  Expect<Equal<Source, IndexSource>>,
  Expect<Equal<DocumentContentType, ContentType>>,
  Expect<Equal<MeResponse['plan'], Plan | null>>,
  // The server's manifest must be readable as the client's (the client may describe less, never more).
  Expect<ServerManifest extends AgentManifest ? true : false>,
];

type Expect<T extends true> = T;
