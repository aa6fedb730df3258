/** The About, Blogs and iQue pages' headings. */
export const contentMessages = {
  about: "About Gearhouse",
  blogs: "Blogs",
  blogsLead: "Answers to five questions every React developer meets, from performance to testing.",
  blogsContents: "In this blog",
  ique: "Gearhouse iQue",
  iqueLead:
    "One app that syncs the lighting of your keyboard, mouse, memory, headset and fans, so your whole setup moves in one rhythm.",
} as const;
