/** Product SKUs and the catalog's CSV import and export (admin). */
export const catalogCsvMessages = {
  sku: "SKU",
  skuHint: "Letters, digits, dots, dashes and underscores; left empty, the shop makes one.",
  skuEditHint: "Letters, digits, dots, dashes and underscores; a CSV import finds the product by it.",
  skuInvalid: (max: number) =>
    `SKU must be 1 to ${max} letters, digits, dots, dashes or underscores, starting with a letter or digit`,
  skuTaken: "Another product has this SKU.",
  /** The note of the stock movements an import writes (the product's stock history). */
  ledgerNote: "Imported from a CSV file",
  import: {
    title: "Import products",
    lead: "Upload a CSV of products. You see what it would change before anything is saved.",
    file: "CSV file",
    fileHint:
      "Columns: sku, name, category, price, quantity, description, threshold, and optionally image (a path of an image already uploaded) and price_tiers (volume prices as units:price pairs, e.g. 50:22;100:19; empty for none, left out to keep them).",
    check: "Check the file",
    checking: "Checking the file…",
    apply: "Apply the import",
    applying: "Applying the import…",
    dryRunTitle: "What the import would do",
    appliedTitle: "What the import did",
    created: (n: string) => `${n} created`,
    changed: (n: string) => `${n} changed`,
    unchanged: (n: string) => `${n} left alone`,
    bad: (n: string) => `${n} bad lines, left out`,
    moreBad: (n: string) => `…and ${n} more bad lines.`,
    line: "Line",
    reason: "Reason",
    download: "Download the catalog as CSV",
    /** Why a line is bad (the dry run's and the apply's report). */
    badLines: {
      columns: (expected: number, found: number) => `Expected ${expected} cells, found ${found}`,
      skuRepeated: (line: number) => `The same SKU is on line ${line}`,
      noImage: "A new product needs an image: upload it first and name its path in the image column",
      imageMissing: "No uploaded image has this path",
      nul: "The line holds a NUL character",
      tooLong: (max: number) => `The line is longer than ${max} characters`,
      thresholdInvalid: (max: number) => `Threshold must be empty or a whole number from 0 to ${max}`,
      tiersFormat:
        "Volume prices must be units:price pairs of whole numbers separated by semicolons (50:22;100:19), or empty for none",
    },
  },
  /** What the import route refuses as a whole. */
  refused: {
    header: (missing: string) => `The CSV's first line must name the columns; missing: ${missing}`,
    unknownColumn: (name: string) => `Unknown column: ${name}`,
    tooManyLines: (max: number) => `The CSV has more than ${max.toLocaleString("en-US")} lines`,
    tooLarge: (mb: number) => `The CSV is larger than ${mb} MB`,
    quote: (line: number) => `Line ${line}: a quoted cell is never closed`,
    empty: "The CSV is empty",
    notCsv: "Send the products as text/csv",
  },
} as const;
