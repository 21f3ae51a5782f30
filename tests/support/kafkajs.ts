// Every e2e test process: kafkajs clients a test opens itself (admins, readers of the log) get the mend of kafkajs'
// request queue that every Folio client has (packages/event-log/src/request-queue.ts): without it each connection
// spins a 1 ms timer, and on Node 24 its negative delays print TimeoutNegativeWarning.
import { mendRequestQueue } from '@folio/event-log/request-queue';

mendRequestQueue();
