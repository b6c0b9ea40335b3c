/** The slice of mvdan-sh (GopherJS build of mvdan.cc/sh/v3/syntax) the guard uses; the package ships no types. */
declare module 'mvdan-sh' {
  export interface ShPos {
    Offset(): number;
  }
  /** Every syntax node; fields depend on `syntax.NodeType(node)`. */
  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
    [field: string]: unknown;
  }
  export interface ShParser {
    Parse(src: string, name: string): ShNode;
  }
  export interface ShSyntax {
    NewParser(...opts: unknown[]): ShParser;
    NodeType(node: unknown): string;
    Walk(node: ShNode, fn: (node: ShNode | null) => boolean): void;
  }
  const sh: { syntax: ShSyntax };
  export default sh;
}
