/**
 * Every module that defines jobs or schedules, imported for their side effect of registering
 * them. A domain that adds background work adds its module here.
 */
import "./housekeeping";
import "../breaches/jobs";
import "../breaches/catalogue-sync";
import "../webhooks/retention";
import "../webhooks/health-notices";
import "../portal/cleanup";
import "../notifications/jobs";
