-- Review moderation (issue 32, item 6; docs/product.md, "Review moderation"): an admin hides a
-- review with a reason (out of every public list, its author told why) and may restore it;
-- customers report reviews, once each. The public list's index now covers the reviews on show.
CREATE TABLE "review_report" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"review_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "review_newest_idx";--> statement-breakpoint
DROP INDEX "review_user_idx";--> statement-breakpoint
ALTER TABLE "review" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "review" ADD COLUMN "hidden_by" text;--> statement-breakpoint
ALTER TABLE "review" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "review_report" ADD CONSTRAINT "review_report_review_id_review_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."review"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_report" ADD CONSTRAINT "review_report_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_report_once_idx" ON "review_report" USING btree ("review_id","user_id");--> statement-breakpoint
CREATE INDEX "review_report_newest_idx" ON "review_report" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "review_hidden_idx" ON "review" USING btree ("hidden_at","id") WHERE hidden_at is not null;--> statement-breakpoint
CREATE INDEX "review_newest_idx" ON "review" USING btree ("created_at","id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "review_user_idx" ON "review" USING btree ("user_id","created_at","id");--> statement-breakpoint
ALTER TABLE "review" ADD CONSTRAINT "review_hidden_with_reason" CHECK (("review"."hidden_at" is null) = ("review"."hidden_reason" is null));