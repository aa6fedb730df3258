import { useEffect, useId, useState } from "react";
import { checkImageFile, IMAGE_ACCEPT } from "../api/upload-image.js";

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
  const id = useId();
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
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex items-center gap-3">
        <input
          id={id}
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={disabled}
          className={`file-input w-full ${shown ? "file-input-error" : ""}`}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${id}-error` : hint ? `${id}-hint` : undefined}
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
      {shown ? (
        <p id={`${id}-error`} className="text-sm text-error" role="alert">
          {shown}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-base-content/75">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
