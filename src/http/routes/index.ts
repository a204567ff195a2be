/**
 * The route modules the HTTP app serves, in order. Each module exports `routes: Route[]` (and optionally
 * `close(runtime)`); adding an area's routes means adding its module here.
 */
import type { RouteModule } from '../route.js';
import * as documents from './documents.js';
import * as mcp from './mcp.js';
import * as me from './me.js';
import * as meta from './meta.js';
import * as query from './query.js';
import * as tools from './tools.js';
import * as ui from './ui.js';

export const ROUTE_MODULES: readonly RouteModule[] = [meta, mcp, tools, documents, query, me, ui];
