/**
 * The schemas the admin forms validate with in the browser: the very ones the server parses
 * with, re-exported in one module so the islands load them (and the real zod) as one lazy
 * chunk (islands/ui/schemas.ts; the bundler gives this module real zod while every other
 * island import of domain/ gets the inert stub, see server/islands/build.ts). Add a schema
 * here when a form needs it.
 */
export { UserCreate, UserUpdate } from "./user.ts";
export { ContactInput, ContactUpdate } from "./contact.ts";
export { QueueInput } from "./queue.ts";
export { QueueOptionCreate, QueueOptionUpdate } from "./queue_option.ts";
export { TagInput } from "./tag.ts";
export { WebhookSubscriptionInput } from "./webhook.ts";
export { QuickMessageInput } from "./quick_message.ts";
export { WhatsappInput } from "./whatsapp.ts";
export { HelpInput } from "./help.ts";
export { CompanyInput, SignupInput } from "./company.ts";
export { PlanInput } from "./plan.ts";
export { ResetPasswordInput, ResetRequest, ResetTokenCheck } from "./password_reset.ts";
export { CompanyHoursForm } from "./company_hours.ts";
export { ExternalMediaForm, ExternalSendForm } from "./external_message.ts";
export { ScheduleInput } from "./schedule.ts";
export { RatingInput } from "./rating.ts";
export { OportunidadeInput } from "./oportunidade.ts";
export { AiDataForm, AiEndpointForm, AiInstructionsForm } from "./ai_module.ts";
export { ChatInput } from "./chat.ts";
export { CampaignInput, CampaignSettings } from "./campaign.ts";
export { AddFromTags, ContactListInput, ContactListItemInput } from "./contact_list.ts";
export { CheckoutAddress, SubscriptionPayload } from "./checkout.ts";
export { ManualPayInput } from "./invoice.ts";
export { PhoneLocation, PhoneNewChat } from "./phone_view.ts";
