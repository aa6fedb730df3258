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

/** An order's card heading in a list (ResponsiveList's ListCard): the product's name and the order's image. */
export function orderCardHead(
  order: { productName: string; img: string },
  imageAlt: (product: string) => string,
) {
  return {
    title: order.productName,
    image: <OrderThumbnail src={order.img} alt={imageAlt(order.productName)} />,
  };
}
