import type { S3Client } from "@aws-sdk/client-s3";
import type { ObjectStorageLocation } from "~/config.server";
import type { AttachmentStorage, StoredFile } from "./attachment-storage.server";

type S3 = typeof import("@aws-sdk/client-s3");

/** AWS's default region; S3-compatible stores mostly accept any region and use this one. */
const DEFAULT_REGION = "us-east-1";

/**
 * Uploaded files in an S3-compatible bucket (STORAGE_URL=s3://…), under the location's prefix. Credentials come
 * the AWS way: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the machine's role. The SDK is loaded on first
 * use, so a deployment that keeps its files in the database never loads it.
 */
export function s3Storage(location: ObjectStorageLocation, env: Record<string, string | undefined> = process.env): AttachmentStorage {
  let connection: Promise<{ sdk: S3; client: S3Client }> | undefined;
  const connect = () =>
    (connection ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: location.region ?? env.AWS_REGION ?? DEFAULT_REGION,
        endpoint: location.endpoint,
        forcePathStyle: location.forcePathStyle,
        // Checksums only where S3 requires them: many S3-compatible stores reject the newer checksum headers
        // and the chunked uploads that carry them.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    })));
  const Bucket = location.bucket;
  const objectKey = (key: string) => `${location.prefix}${key}`;

  return {
    async put(key, bytes) {
      const { sdk, client } = await connect();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: objectKey(key), Body: bytes, ContentLength: bytes.length }));
    },
    async get(key) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await connect();
      // S3 answers a delete of a missing key with success.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(): AsyncGenerator<StoredFile> {
      const { sdk, client } = await connect();
      for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket, Prefix: location.prefix || undefined })) {
        for (const object of page.Contents ?? []) {
          if (!object.Key?.startsWith(location.prefix)) continue;
          yield { key: object.Key.slice(location.prefix.length), modifiedAt: object.LastModified ?? new Date(0) };
        }
      }
    },
  };
}
