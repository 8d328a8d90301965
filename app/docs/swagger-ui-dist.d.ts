/** The part of swagger-ui-dist 5's API the docs route uses (the package ships no types; @types/swagger-ui-dist describes 3.x). */
declare module "swagger-ui-dist" {
  /** The directory of Swagger UI's files, for serving them. */
  export function getAbsoluteFSPath(): string;
}
