/** Types for the part of @mixmark-io/domino (turndown's own HTML parser) that Folio uses; its bundled types name the module `domino`. */
declare module '@mixmark-io/domino' {
  const domino: {
    createDocument(html?: string, force?: boolean): Document;
  };
  export default domino;
}
