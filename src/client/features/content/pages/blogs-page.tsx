import { contentMessages } from "../../../../shared/messages/content.js";
import { PageHeader } from "../../../components/page-header.js";
import { ProseSection } from "../components/prose-section.js";
import { BLOG_POSTS } from "../data/blog-posts.js";

/** /blogs: five questions every React developer meets, answered. */
export function BlogsPage() {
  return (
    <>
      <PageHeader title={contentMessages.blogs} lead={contentMessages.blogsLead} />
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-12 sm:px-6 lg:grid-cols-[16rem_1fr]">
        <nav aria-labelledby="blog-contents" className="lg:sticky lg:top-24 lg:h-fit">
          <h2
            id="blog-contents"
            className="text-sm font-semibold uppercase tracking-wider text-base-content/80"
          >
            {contentMessages.blogsContents}
          </h2>
          <ol className="mt-4 space-y-3 border-l border-base-content/15 pl-4">
            {BLOG_POSTS.map((post) => (
              <li key={post.id}>
                <a href={`#${post.id}`} className="link link-hover text-base-content/85 hover:text-primary">
                  {post.question}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="min-w-0 max-w-3xl space-y-16">
          {BLOG_POSTS.map((post) => (
            <article key={post.id}>
              <ProseSection id={post.id} title={post.question}>
                <p className="text-lg text-base-content">{post.summary}</p>
                {post.body}
              </ProseSection>
            </article>
          ))}
        </div>
      </div>
    </>
  );
}
