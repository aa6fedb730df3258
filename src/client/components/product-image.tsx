type Props = {
  src: string;
  /** The product's name. */
  alt: string;
  /**
   * "first": the page's largest image, likely its Largest Contentful Paint, fetched at once and
   * first; "eager": in view on arrival, fetched at once; "lazy" (default): fetched when scrolled near.
   */
  loading?: "first" | "eager" | "lazy";
  /**
   * Omitted: the top of a product card, the picture cropped to fill the card's 4:3. Given: the
   * whole picture, fitted into 4:3 with `inset` around it, in a figure of the `frame` classes.
   */
  whole?: { frame: string; inset: "p-4" | "p-6" };
};

/** A product's picture at 4:3, the same size wherever it is shown: a card's top, or whole in a frame. */
export function ProductImage({ src, alt, loading = "lazy", whole }: Props) {
  return (
    <figure className={whole ? whole.frame : "aspect-[4/3] bg-base-300"}>
      <img
        src={src}
        alt={alt}
        width={800}
        height={600}
        loading={loading === "lazy" ? "lazy" : "eager"}
        fetchPriority={loading === "first" ? "high" : "auto"}
        decoding="async"
        className={
          whole ? `aspect-[4/3] h-auto w-full object-contain ${whole.inset}` : "h-full w-full object-cover"
        }
      />
    </figure>
  );
}
