import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { runInBackground } from "../../lib/periodic.js";
import { ImageEncoder } from "./encoder.js";
import { UploadSpool } from "./spool.js";
import { startImageSweeper } from "./sweep.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Re-encodes uploads in a child process of the lowest priority (encoder.ts). */
    imageEncoder: ImageEncoder;
    /** Where uploads are written as they arrive, on this instance's disk (spool.ts). */
    uploadSpool: UploadSpool;
  }
}

/**
 * The uploads' background work, owned here and registered in app.ts before the upload routes,
 * which use the encoder and the spool: their gauges; at start, the spools a killed process left
 * (never a running instance's); the sweep of unused images every IMAGE_SWEEP_INTERVAL_SECONDS;
 * and at close, the sweeper stopped, then the encoder's child and the spool.
 */
async function uploadWorkers(app: FastifyInstance) {
  const encoder = new ImageEncoder();
  const spool = new UploadSpool(app.config.dataDir, app.config.uploadSpoolBytes);
  app.decorate("imageEncoder", encoder);
  app.decorate("uploadSpool", spool);
  app.gauge(
    "gearhouse_upload_spool_reserved_bytes",
    "Bytes reserved in this instance's upload spool by the uploads being received (at most UPLOAD_SPOOL_MB).",
    () => spool.reservedBytes,
  );
  app.gauge(
    "gearhouse_image_queue_depth",
    "Uploads waiting for the image worker, or being encoded.",
    () => encoder.queued,
  );
  runInBackground(app, {
    start: async () => {
      const stale = await spool.removeStale().catch((error: unknown) => {
        app.log.error({ err: error }, "stale upload spools not removed");
        return [];
      });
      if (stale.length > 0)
        app.log.info({ removed: stale }, "removed the upload spools of stopped processes");
      return startImageSweeper(app.db, app.config.imageSweepIntervalSeconds, app.log);
    },
    close: () => {
      encoder.close();
      spool.close();
    },
  });
}

export default fp(uploadWorkers, { name: "upload-workers", dependencies: ["metrics"] });
