/**
 * What the server says about itself in `initialize`: name, capabilities, instructions. A light module (no SDK
 * import), shared by the SDK server (server.ts) and the stdio front (stdio-front.ts), so both answer alike.
 */
import { VERSION } from '../version.js';

export const SERVER_INFO = { name: 'docent', title: 'docent', version: VERSION };

export const SERVER_CAPABILITIES = { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false }, logging: {} };

export const SERVER_INSTRUCTIONS =
  'docent answers questions from documentation the operator uploaded (rag_query: grounded answers with sources ' +
  'and a confidence, or an honest "no match"; pass keywords, the terms the documentation would use, when the ' +
  "question is in the user's words) and offers a catalog of agent tools. Prompts are agent presets. " +
  'Resources are the documents themselves (docent://{library}/{path}); each source of an answer carries the ' +
  'uri of its whole document.';
