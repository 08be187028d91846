// Server-Sent Events as the tests read them: a stream's bytes cut into its
// records' blocks as they arrive, and a block's fields.

/**
 * A reader of one SSE body: `take(chunk)` decodes a chunk of its bytes and returns the blocks
 * (records and comments, without their blank-line ends) that chunk completed, in order.
 */
export function sseBlocks() {
  const decoder = new TextDecoder();
  let buffer = '';
  return (chunk) => {
    buffer += decoder.decode(chunk, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop();
    return blocks;
  };
}

/** A record block's fields by name (`id`, `event`, `data`, …), each the text after its `name:`. */
export function sseFields(block) {
  const fields = {};
  for (const line of block.split('\n')) {
    const at = line.indexOf(':');
    fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
  }
  return fields;
}
