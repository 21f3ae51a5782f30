import { runService } from '@folio/service';

/**
 * The callback dispatcher. Webhook delivery (signed POSTs, the durable retry schedule, WebhookDelivery events) is
 * not built yet: this process only takes its place in the stack so that `npm start` runs every service.
 */
await runService('dispatcher', async ({ logger }) => {
  logger.info('dispatcher started (webhook delivery not implemented yet)');
  const idle = setInterval(() => {}, 1 << 30);
  return {
    async stop() {
      clearInterval(idle);
    },
  };
});
