/** Paths of the OpenAPI document and its human docs page (free among the spec's pages and api calls). */
export const openApiPaths = { document: '/openapi.json', docs: '/api-docs' } as const;

/** True for the document, the docs page and its files: what a browser navigation must reach instead of the web app. */
export function isOpenApiPath(path: string): boolean {
  return path === openApiPaths.document || path === openApiPaths.docs || path.startsWith(`${openApiPaths.docs}/`);
}
