import { useId } from "react";

type Props = {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
};

/** A controlled checkbox with its label beside it, the label also a target for the click. */
export function CheckboxField({ label, checked, disabled, onChange }: Props) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <input
        id={id}
        type="checkbox"
        className="checkbox checkbox-primary"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id} className="cursor-pointer">
        {label}
      </label>
    </div>
  );
}
