/**
 * The largest request body the REST API reads (a larger one is answered 413). Its own module so
 * the production server (scripts/serve.ts) can bound what it buffers without loading the API.
 */
export const MAX_REST_BODY_BYTES = 1_000_000;
