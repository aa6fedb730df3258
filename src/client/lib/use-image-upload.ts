import { useState } from "react";
import { problemMessage } from "./form-errors.js";
import { uploadImage } from "./upload-image.js";

/** How an upload went: the image's URL on the shop, or why it was refused. */
export type UploadOutcome = { url: string; problem?: undefined } | { url?: undefined; problem: string };

/**
 * The image a form uploads before it sends itself (an order's picture, a new product's): the file
 * picked in its ImageField, the message under that field, and the upload, whose refusal is shown
 * there too.
 */
export function useImageUpload() {
  const [file, setFile] = useState<File>();
  const [error, setError] = useState<string>();
  const [uploading, setUploading] = useState(false);

  async function upload(picked: File): Promise<UploadOutcome> {
    setUploading(true);
    try {
      const url = await uploadImage(picked);
      setError(undefined);
      return { url };
    } catch (failure) {
      const problem = problemMessage(failure);
      setError(problem);
      return { problem };
    } finally {
      setUploading(false);
    }
  }

  return {
    file,
    uploading,
    upload,
    /** Shows a message under the field: no image picked, or the server refusing it with the form. */
    setError,
    /** Forgets the picked file once the form has been sent (the form's reset() empties the input). */
    clear: () => setFile(undefined),
    /** Spread onto the ImageField. */
    field: {
      file,
      error,
      onChange: (picked: File | undefined) => {
        setFile(picked);
        setError(undefined);
      },
    },
  };
}
