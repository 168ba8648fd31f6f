/**
 * What each tag (an area of `area("…")` in server/openapi/ops_*.ts) groups, for the
 * document's `tags` section: a reader of the API reference sees it above the area's
 * operations. A new area adds its line here; the linter test (tests/openapi_lint_test.ts)
 * fails on a tag without one.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  "Auth": "Log in with e-mail and password, renew the access token with the refresh cookie, log out, read the signed-in user.",
  "Sign-up": "The public sign-up of a new company, and password recovery by e-mail.",
  "Users": "The company's users (agents, supervisors, admins), their queues and connections.",
  "Companies": "The platform's companies (super users), and a company's own record and opening hours.",
  "Plans": "The plans companies subscribe to, with their limits and feature flags.",
  "Helps": "The help videos shown in the app.",
  "Settings": "Company and platform settings, and the platform's branding files (logos, documents, certificate).",
  "Announcements": "Notices the platform owner publishes to companies, and which ones a user has not read.",
  "Tickets": "Conversations with customers: the inbox lists, counts, accepting, transferring, closing, kanban lanes and groups.",
  "Messages": "A ticket's messages: reading pages, sending text and files, editing, deleting, forwarding, searching.",
  "Contacts": "The company's contacts: import (files, phone book, chats), export, blocking, and the wallets that assign them to users.",
  "Tags": "Tags for tickets and contacts, and the kanban lanes they make.",
  "Queues": "Queues (departments) with their opening hours, and the chatbot option trees they answer with.",
  "Quick messages": "Canned replies agents insert with a shortcut, optionally with a file.",
  "Ticket notes": "Internal notes on a ticket, never sent to the customer.",
  "Opportunities": "Sales opportunities, and the tickets linked to each.",
  "Connections": "WhatsApp connections (Baileys, Evolution API, Cloud API): pairing, sessions, settings.",
  "Simulator": "The simulated WhatsApp phone and payment provider of the demo, for trying the product without real accounts.",
  "Provider webhooks": "Calls WhatsApp providers make to Balcão (Evolution API events, Cloud API notifications).",
  "External API": "Sending messages from another system with a connection's token.",
  "System": "Media links, the realtime WebSocket, liveness and this document.",
  "Schedules": "Messages scheduled to be sent to a contact at a later time.",
  "Dashboard": "The dashboard's figures for a period, and their exports.",
  "Reports": "The ticket report, the service panel and the audit log.",
  "Ratings": "Satisfaction surveys and sending one to a ticket's customer.",
  "Public survey": "The page a customer opens from a survey link, and their answer.",
  "Integrations": "Typebot and n8n look-ups for the queues' bot integrations.",
  "Webhook subscriptions": "URLs a company subscribes to events, and the log of their deliveries.",
  "Internal chat": "Chats between the company's users.",
  "AI module": "The AI assistant's settings and reply suggestions.",
  "Campaigns": "Bulk message campaigns: scheduling, pacing, cancelling, and their reports.",
  "Contact lists": "Lists of contacts that campaigns send to, with their import.",
  "Invoices": "The company's invoices, paying them and the subscription checkout.",
  "Payment webhooks": "Calls payment providers make to Balcão when a charge changes.",
  "Outbound webhooks": "What Balcão POSTs to the URLs of a connection or of a webhook subscription.",
};
