-- Issue 19 item 7 (docs/decisions/0033-banners-promo-app-link.md): banners, promo menu items and the
-- installable-app entries, managed in the back office. Dates are Manila calendar days, both ends included.
CREATE TABLE "banner" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "alt" text NOT NULL,
  "desktop" text NOT NULL,
  "mobile" text NOT NULL,
  "start_date" date NOT NULL,
  "end_date" date,
  "hide_start_date" date,
  "hide_end_date" date,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "banner_end_ck" CHECK ("end_date" is null or "end_date" >= "start_date"),
  CONSTRAINT "banner_hide_ck" CHECK (("hide_start_date" is null and "hide_end_date" is null) or ("hide_start_date" is not null and "hide_end_date" >= "hide_start_date"))
);
--> statement-breakpoint
CREATE TABLE "promo_item" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "title" text NOT NULL,
  "link" text NOT NULL,
  "start_date" date NOT NULL,
  "end_date" date,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "promo_item_end_ck" CHECK ("end_date" is null or "end_date" >= "start_date")
);
--> statement-breakpoint
CREATE TABLE "app_link" (
  "platform" text PRIMARY KEY,
  "url" text NOT NULL,
  "enabled" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "app_link_platform_ck" CHECK ("platform" in ('android', 'ios'))
);
--> statement-breakpoint
-- Spec section 9. The default banner from 2024-05-07, stepping aside 2025-07-11..2025-07-31 for July 2025's;
-- the new-client banner's two periods (2022-10-01..2023-01-08, 2023-01-31..2099-01-30) as one window with a hide.
INSERT INTO "banner" ("alt", "desktop", "mobile", "start_date", "end_date", "hide_start_date", "hide_end_date") VALUES
  ('Hiram: a loan of up to PHP 10,000, decided in minutes', '/banners/default-desktop.svg', '/banners/default-mobile.svg', '2024-05-07', NULL, '2025-07-11', '2025-07-31'),
  ('July 2025: your first loan with Hiram', '/banners/july-2025-desktop.svg', '/banners/july-2025-mobile.svg', '2025-07-11', '2025-07-31', NULL, NULL),
  ('New to Hiram? Your first loan, straight to your account or e-wallet', '/banners/new-client-desktop.svg', '/banners/new-client-mobile.svg', '2022-10-01', '2099-01-30', '2023-01-09', '2023-01-30');
--> statement-breakpoint
INSERT INTO "promo_item" ("title", "link", "start_date", "end_date") VALUES
  ('Holiday raffle', '/promo', '2023-11-15', '2023-12-31');
--> statement-breakpoint
-- Spec section 1: the mobile app, Android only, enabled.
INSERT INTO "app_link" ("platform", "url", "enabled") VALUES
  ('android', 'https://play.google.com/store/apps/details?id=ph.hiram.app', true);
