CREATE TABLE "upload_quota" (
	"user_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image" ADD COLUMN "released_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "upload_quota" ADD CONSTRAINT "upload_quota_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_image_idx" ON "product" USING btree ("image");--> statement-breakpoint
CREATE INDEX "image_released_idx" ON "image" USING btree ("released_at") WHERE "image"."released_at" is not null;--> statement-breakpoint
CREATE INDEX "order_img_idx" ON "order" USING btree ("img");--> statement-breakpoint
-- Written by hand (drizzle-kit does not manage triggers): a product or order that lets go of an
-- uploaded image (deleted, or given another image) marks it released, so the image sweep
-- (src/server/features/uploads/sweep.ts) looks at it again after its grace period.
CREATE FUNCTION "image_release"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  url text := to_jsonb(OLD) ->> TG_ARGV[0];
BEGIN
  IF TG_OP = 'DELETE' OR url IS DISTINCT FROM to_jsonb(NEW) ->> TG_ARGV[0] THEN
    UPDATE "image" SET "released_at" = now()
    WHERE "key" = substring(url FROM '^/api/images/([a-f0-9]{64})\.webp$');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_image_release" AFTER DELETE OR UPDATE OF "image" ON "product"
  FOR EACH ROW EXECUTE FUNCTION "image_release"('image');--> statement-breakpoint
CREATE TRIGGER "order_img_release" AFTER DELETE OR UPDATE OF "img" ON "order"
  FOR EACH ROW EXECUTE FUNCTION "image_release"('img');
