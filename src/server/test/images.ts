import sharp from "sharp";

/** A photo-like JPEG: noise does not compress, so it takes a real decode and encode. */
export const noisyJpeg = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();

/** A small PNG of one colour; `seed` makes each one a different image. */
export const tinyPng = (seed: number) =>
  sharp({
    create: {
      width: 8 + (seed % 16),
      height: 8 + Math.floor(seed / 16),
      channels: 3,
      background: { r: seed % 256, g: 40, b: 90 },
    },
  })
    .png()
    .toBuffer();
