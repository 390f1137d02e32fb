// The StackSalt resource's type token, in a module of its own so that tools reading state
// (pinSalt.ts) need not load the SDK's runtime. Its own module in the token: it is not a service
// object, so `txmail:` filters skip it.
export const STACK_SALT_TYPE = "pulumi-nodejs:dynamic/txmail-internal:StackSalt";
