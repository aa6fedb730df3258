import { eq } from "drizzle-orm";
import type { Profile, ProfileInput } from "../../../shared/accounts.js";
import { profileMessages } from "../../../shared/messages/profile.js";
import type { Db } from "../../db/client.js";
import { profiles } from "../../db/schema/index.js";
import { conflict, notFound } from "../../lib/problem.js";
import type { SessionUser } from "../../plugins/session.js";

type Fields = { address: string; city: string; phone: string; companyName: string; companyTaxId: string };

function view(user: SessionUser, row: Fields | undefined): Profile {
  return {
    name: user.name,
    email: user.email,
    address: row?.address ?? "",
    city: row?.city ?? "",
    phone: row?.phone ?? user.phone,
    companyName: row?.companyName ?? "",
    companyTaxId: row?.companyTaxId ?? "",
    exists: Boolean(row),
  };
}

export async function getProfile(db: Db, user: SessionUser): Promise<Profile> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, user.id));
  return view(user, row);
}

export async function createProfile(db: Db, user: SessionUser, input: ProfileInput): Promise<Profile> {
  const [row] = await db
    .insert(profiles)
    .values({ userId: user.id, ...input })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(profileMessages.exists);
  return view(user, row);
}

export async function updateProfile(db: Db, user: SessionUser, input: ProfileInput): Promise<Profile> {
  const [row] = await db
    .update(profiles)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(profiles.userId, user.id))
    .returning();
  if (!row) throw notFound(profileMessages.missing);
  return view(user, row);
}
