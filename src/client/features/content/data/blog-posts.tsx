import type { ReactNode } from "react";
import { CodeBlock } from "../components/code-block.js";

export type BlogPost = {
  id: string;
  question: string;
  summary: string;
  body: ReactNode;
};

/** The five questions of the blog (docs/product.md, Pages), answered in Gearhouse's own words. */
export const BLOG_POSTS: readonly BlogPost[] = [
  {
    id: "react-performance",
    question: "How do you improve the performance of a React application?",
    summary: "Measure first, render less, ship less JavaScript, and keep the main thread free for input.",
    body: (
      <>
        <p>
          Start by measuring, not guessing. Profile a production build with the React DevTools Profiler and
          the browser's Performance panel, and watch real-user metrics such as Largest Contentful Paint and
          Interaction to Next Paint. Most slow apps have one or two hot spots, and the profiler shows which
          components re-render, how often and why.
        </p>
        <ul>
          <li>
            <strong>Render less.</strong> Keep state as close as possible to the components that use it, so a
            keystroke in a search box does not re-render the whole page. Split a large context into smaller
            ones, because every consumer re-renders when a context value changes.
          </li>
          <li>
            <strong>Memoize where the profiler says it pays.</strong> <code>React.memo</code> skips
            re-rendering a component whose props did not change; <code>useMemo</code> and{" "}
            <code>useCallback</code> keep expensive results and callbacks stable between renders. The React
            Compiler can add this memoization automatically.
          </li>
          <li>
            <strong>Ship less JavaScript.</strong> Split code by route with <code>React.lazy</code> and
            dynamic <code>import()</code>, so visitors download only the page they open. Check the bundle for
            large dependencies that a smaller library or a few lines of code could replace.
          </li>
          <li>
            <strong>Keep typing responsive.</strong> <code>useTransition</code> and{" "}
            <code>useDeferredValue</code> let React render an expensive update in the background while the
            input stays smooth; debounce work such as search requests.
          </li>
          <li>
            <strong>Render long lists in windows.</strong> Virtualization (for example TanStack Virtual) puts
            only the visible rows into the DOM. Give list items stable keys, never the array index of a list
            that can reorder.
          </li>
          <li>
            <strong>Fetch smart.</strong> A data cache such as TanStack Query removes duplicate requests and
            shows cached data instantly; start requests in parallel instead of one component waiting for
            another.
          </li>
          <li>
            <strong>Mind the assets.</strong> Give images a width and height so the layout does not jump,
            lazy-load what is below the fold and serve compressed, modern formats.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "state-management",
    question: "What are the different ways to manage state in a React application?",
    summary: "Pick the smallest scope that works: local, lifted, URL, server cache, context or a store.",
    body: (
      <>
        <p>
          "State" covers very different kinds of data, and each kind has a natural home. Choosing the smallest
          scope that works keeps components simple and re-renders cheap.
        </p>
        <ul>
          <li>
            <strong>Local state</strong> with <code>useState</code> or, for related values that change
            together, <code>useReducer</code>: an open menu, the value of a field, the selected tab.
          </li>
          <li>
            <strong>Lifted state:</strong> when two siblings need the same value, move it to their closest
            common parent and pass it down as props, with callbacks to change it.
          </li>
          <li>
            <strong>URL state:</strong> filters, sort order and the current page belong in the address (search
            parameters), so a view can be bookmarked, shared and restored with the back button. Our product
            list works this way.
          </li>
          <li>
            <strong>Server state:</strong> data that lives in a backend is a cache, not application state.
            Libraries such as TanStack Query, SWR or RTK Query fetch it, cache it, refetch it when it goes
            stale and track loading and error states for you.
          </li>
          <li>
            <strong>Context:</strong> <code>createContext</code> and <code>useContext</code> share values that
            change rarely, like the signed-in user, theme or language, without passing props through every
            level.
          </li>
          <li>
            <strong>Global stores:</strong> Redux Toolkit, Zustand, Jotai or MobX suit client state that many
            distant components read and update often, such as a complex editor. Components subscribe to just
            the slice they need.
          </li>
          <li>
            <strong>Form state:</strong> libraries such as React Hook Form manage values, validation and
            errors of large forms with few re-renders.
          </li>
          <li>
            <strong>Persistent state:</strong> <code>localStorage</code>, <code>sessionStorage</code> or
            IndexedDB keep preferences across visits.
          </li>
        </ul>
        <p>
          And for a value that must survive re-renders but should not cause one, such as a timer id, use{" "}
          <code>useRef</code>.
        </p>
      </>
    ),
  },
  {
    id: "prototypal-inheritance",
    question: "How does prototypal inheritance work?",
    summary: "Objects delegate missing properties to their prototype, link by link, up to null.",
    body: (
      <>
        <p>
          In JavaScript every object has a hidden link, <code>[[Prototype]]</code>, to another object or to{" "}
          <code>null</code>. When you read a property the object does not have itself, the engine follows that
          link and looks on the prototype, then on the prototype's prototype, and so on. This is the{" "}
          <em>prototype chain</em>; it ends at <code>Object.prototype</code>, whose prototype is{" "}
          <code>null</code>. If nobody has the property, the result is <code>undefined</code>.
        </p>
        <CodeBlock
          label="Delegation through the prototype chain"
          code={`
const part = {
  describe() {
    return \`\${this.name} costs $\${this.price}\`;
  },
};

const mouse = Object.create(part); // mouse's prototype is part
mouse.name = "Vector Pro";
mouse.price = 59;

mouse.describe();                        // "Vector Pro costs $59"
Object.hasOwn(mouse, "describe");        // false: found on the prototype
Object.getPrototypeOf(mouse) === part;   // true
`}
        />
        <ul>
          <li>
            <strong>Methods are shared, data is own.</strong> <code>describe</code> exists once, on{" "}
            <code>part</code>, and every object that delegates to it uses it. <code>this</code> is the object
            the method was called on, not the prototype, so the method reads each object's own data.
          </li>
          <li>
            <strong>Writing does not travel up the chain.</strong> Assigning <code>mouse.describe = …</code>{" "}
            creates an own property that <em>shadows</em> the prototype's one; the prototype is untouched.
          </li>
          <li>
            <strong>Constructors and classes use the same mechanism.</strong> <code>new Mouse()</code> creates
            an object whose prototype is <code>Mouse.prototype</code>. <code>class</code> and{" "}
            <code>extends</code> are a clearer syntax for exactly this: <code>class Mouse extends Part</code>{" "}
            links <code>Mouse.prototype</code> to <code>Part.prototype</code>.
          </li>
        </ul>
        <p>
          Set the prototype when an object is created (<code>Object.create</code>, <code>new</code> or{" "}
          <code>class</code>); changing it later with <code>Object.setPrototypeOf</code> makes engines drop
          their optimizations for that object.
        </p>
      </>
    ),
  },
  {
    id: "setting-state-directly",
    question: "Why should you not set state directly, for example products = [...] instead of setProducts?",
    summary: "Only the setter tells React to re-render, and React detects change by reference.",
    body: (
      <>
        <p>
          In a component, <code>const [products, setProducts] = useState([])</code> gives you a snapshot of
          the state for this one render, plus the only function that can change it. Writing{" "}
          <code>products = [...]</code> or <code>products.push(item)</code> goes around React:
        </p>
        <ul>
          <li>
            <strong>Nothing re-renders.</strong> React re-renders when a state setter is called. Reassigning a
            local variable changes nothing React knows about, so the screen keeps showing the old list.
          </li>
          <li>
            <strong>The change is lost.</strong> On the next render React calls the component again and hands
            out the state it stored; the reassigned variable simply disappears.
          </li>
          <li>
            <strong>Mutations hide from React.</strong> React compares old and new state with{" "}
            <code>Object.is</code>. If you mutate the array and then pass the same array to the setter, the
            reference is unchanged, so React may skip the update, and memoized children and effects that
            depend on <code>products</code> never see the change.
          </li>
          <li>
            <strong>Concurrent rendering relies on it.</strong> React may render a component more than once
            before committing, and keeps earlier snapshots around for transitions. Mutating shared state makes
            those renders disagree, which shows up as flickering or stale screens and bugs that only appear in
            Strict Mode.
          </li>
        </ul>
        <CodeBlock
          label="Replace the state with a new value instead of changing it"
          code={`
// Wrong: mutates the current array, React is not told
products.push(newProduct);

// Right: a new array, handed to the setter
setProducts((current) => [...current, newProduct]);

// Updating one item: copy what changes, keep the rest
setProducts((current) =>
  current.map((p) => (p.id === id ? { ...p, quantity: p.quantity - ordered } : p)),
);
`}
        />
        <p>
          Use the updater form, <code>setProducts((current) =&gt; …)</code>, whenever the new state depends on
          the old one: several updates in the same event are then applied in order instead of overwriting each
          other.
        </p>
      </>
    ),
  },
  {
    id: "unit-tests",
    question: "What is a unit test, why write unit tests, and how?",
    summary:
      "Small, fast, automatic checks of one piece of behaviour that let you change code with confidence.",
    body: (
      <>
        <p>
          A <strong>unit test</strong> is a small automated check of one unit of code, such as a function, a
          hook or a component, in isolation. It gives the unit known inputs and asserts on the result. Unit
          tests run in milliseconds, need no browser or server, and give the same answer every time.
        </p>
        <p>Why write them?</p>
        <ul>
          <li>
            They catch regressions the moment a change breaks existing behaviour, long before a customer does.
          </li>
          <li>They let you refactor with confidence: if the tests still pass, the behaviour is intact.</li>
          <li>They document how a unit is meant to be used, with examples that cannot go out of date.</li>
          <li>
            Hard-to-test code is usually too tangled, so tests push the design towards small, clear pieces.
          </li>
          <li>They run on every push in continuous integration, so the whole team benefits.</li>
        </ul>
        <p>
          How to write one: pick a test runner such as Vitest or Jest, and follow{" "}
          <em>Arrange, Act, Assert</em>. Set up the input, call the code, check the outcome. Test behaviour
          that a caller can observe rather than internal details, give each test one reason to fail, and name
          it after the behaviour it protects.
        </p>
        <CodeBlock
          label="A unit test with Vitest"
          code={`
import { describe, expect, it } from "vitest";
import { orderTotal } from "./order-total";

describe("orderTotal", () => {
  it("multiplies the unit price by the quantity", () => {
    expect(orderTotal({ price: 49, quantity: 10 })).toBe(490);
  });

  it("rejects an order below the minimum of 10 units", () => {
    expect(() => orderTotal({ price: 49, quantity: 9 })).toThrow("Order minimum 10 units");
  });
});
`}
        />
        <p>
          For React components, React Testing Library renders the component and lets the test find elements
          the way a user would, by role, label or text, and then interact with them. Replace slow or
          unpredictable dependencies (network, clock, random numbers) with fakes at the boundary, for example
          with Mock Service Worker for HTTP.
        </p>
        <CodeBlock
          label="A component test with React Testing Library and jest-dom matchers"
          code={`
import { render, screen } from "@testing-library/react";
import { StarRating } from "./star-rating";

it("reads out the rating", () => {
  render(<StarRating rating={4} />);
  expect(screen.getByRole("img", { name: "Rated 4 out of 5" })).toBeVisible();
});
`}
        />
        <p>
          Unit tests are the broad base of the testing pyramid. Integration tests check that units work
          together (for example an API route with a real database), and a few end-to-end tests drive the real
          app in a browser.
        </p>
      </>
    ),
  },
];
