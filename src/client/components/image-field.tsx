import { useEffect, useState } from "react";
import { checkImageFile, IMAGE_ACCEPT } from "../lib/upload-image.js";
import { FieldFrame } from "./field-frame.js";

type Props = {
  label: string;
  /** A short rule under the field while it has no error. */
  hint?: string;
  /** A message from outside, e.g. the server refusing the upload. */
  error?: string | undefined;
  file: File | undefined;
  onChange(file: File | undefined): void;
  disabled?: boolean;
};

/** A labelled image picker with a preview; checks size and type at once, the server checks the content. */
export function ImageField({ label, hint, error, file, onChange, disabled }: Props) {
  const [localError, setLocalError] = useState<string>();
  const [preview, setPreview] = useState<string>();
  const shown = localError ?? error;

  useEffect(() => {
    if (!file) {
      setPreview(undefined);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <FieldFrame label={label} error={shown} hint={hint} alertError>
      {(control) => (
        <div className="flex items-center gap-3">
          <input
            {...control}
            type="file"
            accept={IMAGE_ACCEPT}
            disabled={disabled}
            className={`file-input w-full ${shown ? "file-input-error" : ""}`}
            onChange={(event) => {
              const picked = event.currentTarget.files?.[0];
              const problem = picked ? checkImageFile(picked) : undefined;
              setLocalError(problem);
              onChange(problem ? undefined : picked);
            }}
          />
          {preview ? (
            <img
              src={preview}
              alt=""
              width={48}
              height={48}
              className="size-12 shrink-0 rounded-box border border-base-content/10 object-cover"
            />
          ) : null}
        </div>
      )}
    </FieldFrame>
  );
}
