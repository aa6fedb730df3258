import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { commonMessages } from "../../../shared/messages/common.js";
import { Icon } from "../../components/icon.js";
import { ScriptButton } from "../../components/script-button.js";
import { useSession, useSignOut } from "../../lib/auth.js";
import { withReference } from "../../lib/form-errors.js";
import { paths } from "../../lib/paths.js";

const text = commonMessages.nav;

const LINKS = [
  { to: paths.home, label: text.home, end: true },
  { to: paths.tools, label: text.products, end: false },
  { to: paths.about, label: text.about, end: false },
  { to: paths.blogs, label: text.blogs, end: false },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? "menu-active font-semibold" : "text-base-content/85";

function NavItems({ vertical }: { vertical: boolean }) {
  const { user } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const onSignOut = () =>
    signOut.mutate(undefined, {
      onSuccess: () => {
        toast.success(commonMessages.signedOut);
        void navigate(paths.home);
      },
      onError: (error) => toast.error(withReference(commonMessages.signOutFailed, error)),
    });

  return (
    <ul className={vertical ? "menu w-full gap-1" : "menu menu-horizontal items-center gap-1"}>
      {LINKS.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.end} className={linkClass}>
            {link.label}
          </NavLink>
        </li>
      ))}
      {user ? (
        <>
          <li>
            <NavLink to={paths.dashboard.root} className={linkClass}>
              {text.dashboard}
            </NavLink>
          </li>
          <li>
            <ScriptButton type="button" onClick={onSignOut} disabled={signOut.isPending}>
              {text.signOut}
            </ScriptButton>
          </li>
        </>
      ) : (
        <li>
          <NavLink
            to={paths.login}
            className={vertical ? linkClass : "btn btn-primary btn-sm ml-2 text-primary-content"}
          >
            {text.login}
          </NavLink>
        </li>
      )}
    </ul>
  );
}

/** The site's top bar: brand, the product's (docs/product.md) links, and a disclosure menu on narrow screens. */
export function Navbar() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A followed link closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to navigation only
  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  return (
    <header className="sticky top-0 z-40 border-b border-base-content/10 bg-base-100/90 backdrop-blur">
      <nav aria-label={text.label} className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="flex h-16 items-center justify-between gap-4">
          <Link to={paths.home} className="flex items-center gap-2 text-xl font-extrabold tracking-tight">
            <img src="/media/logo.svg" alt="" width={32} height={32} className="h-8 w-8" />
            <span className="text-rgb">{text.brand}</span>
          </Link>
          <div className="hidden md:block">
            <NavItems vertical={false} />
          </div>
          <ScriptButton
            ref={toggleRef}
            type="button"
            className="btn btn-ghost btn-square md:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => setOpen((value) => !value)}
          >
            <span className="sr-only">{text.menu}</span>
            <Icon
              path={open ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"}
              className="h-6 w-6 fill-none stroke-current stroke-2"
            />
          </ScriptButton>
        </div>
        <div id={menuId} hidden={!open} className="border-t border-base-content/10 py-3 md:hidden">
          <NavItems vertical />
        </div>
      </nav>
    </header>
  );
}
