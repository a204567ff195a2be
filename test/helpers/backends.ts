/** redis-server and s3rver, started on loopback (shared with the bench: scripts/backends.ts). */
export * from '../../scripts/backends.js';
