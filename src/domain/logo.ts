/** The largest logo a portal may have. */
export const MAX_LOGO_BYTES = 256 * 1024;

/**
 * The image type of a logo file, read from its bytes rather than its name: PNG, JPEG, WebP or
 * SVG. An SVG with script or event handlers is refused, though it would be served sandboxed.
 */
export function logoType(bytes: Buffer): { type: string } | { problem: string } {
  if (bytes.length === 0) return { problem: 'the logo file is empty' };
  if (bytes.length > MAX_LOGO_BYTES) return { problem: `the logo is ${Math.ceil(bytes.length / 1024)} KiB; at most ${MAX_LOGO_BYTES / 1024} KiB` };
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { type: 'image/png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { type: 'image/jpeg' };
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return { type: 'image/webp' };
  const text = bytes.toString('utf8');
  if (/^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text)) {
    if (/<script|\son[a-z]+\s*=|javascript:|<foreignObject/i.test(text)) return { problem: 'the SVG logo contains script or event handlers' };
    return { type: 'image/svg+xml' };
  }
  return { problem: 'the logo must be a PNG, JPEG, WebP or SVG image' };
}
