/** The customer's image of an order, small enough for a table cell. */
export function OrderThumbnail({ src, alt }: { src: string; alt: string }) {
  return (
    <img
      src={src}
      alt={alt}
      width={56}
      height={56}
      loading="lazy"
      className="size-14 rounded-box border border-base-content/10 bg-base-300 object-contain"
    />
  );
}
