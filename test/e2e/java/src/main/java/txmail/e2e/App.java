package txmail.e2e;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi_txmail.txmail.SubAccount;
import com.pulumi_txmail.txmail.SubAccountApiKey;
import com.pulumi_txmail.txmail.SubAccountApiKeyArgs;
import com.pulumi_txmail.txmail.Suppression;
import com.pulumi_txmail.txmail.SuppressionArgs;
import com.pulumi_txmail.txmail.Tenant;
import com.pulumi_txmail.txmail.TenantArgs;
import com.pulumi_txmail.txmail.Webhook;
import com.pulumi_txmail.txmail.WebhookArgs;
import com.pulumi_txmail.txmail.inputs.ConnectionArgs;
import com.pulumi_txmail.txmail.inputs.TenantDomainArgs;
import com.pulumi_txmail.txmail.inputs.TenantKeyArgs;

/**
 * A tenant and plain resources fed by its outputs, through the default provider (stack config):
 * a key of the tenant's sub account, and a webhook and a suppression managed with the tenant's
 * connection (its sub account and bootstrap key).
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    private static void stack(Context ctx) {
        var tenant = new Tenant("javan", TenantArgs.builder()
            .website("javan.example.com")
            .domain(TenantDomainArgs.builder().domain("mail.javan.example.com").build())
            // The key the tenant's connection carries: what its domain needs, and what the webhook
            // and the suppression below, managed with that connection, need.
            .bootstrapKey(TenantKeyArgs.builder()
                .ipAllowList("127.0.0.1")
                .scopes(
                    "domains:read", "domains:write", "domains:delete:mail.javan.example.com",
                    "webhooks:read:all", "webhooks:write:all", "webhooks:delete:all",
                    "suppressions:read", "suppressions:write", "suppressions:delete")
                .build())
            .build());

        Output<String> subAccountId = tenant.subAccount().apply(SubAccount::id);
        var ciKey = new SubAccountApiKey("javan-ci", SubAccountApiKeyArgs.builder()
            .subAccountId(subAccountId)
            .label("javan ci")
            .scopes("messages:send:mail.javan.example.com")
            .build());

        // The tenant's connection is an output object (its sub account and key; the service's URL
        // only when the tenant was given one); the resources take it as an input.
        Output<ConnectionArgs> connection = tenant.connection().applyValue(c -> {
            var args = ConnectionArgs.builder();
            c.accountId().ifPresent(args::accountId);
            c.apiKey().ifPresent(args::apiKey);
            c.baseUrl().ifPresent(args::baseUrl);
            return args.build();
        });
        var hook = new Webhook("javan-events", WebhookArgs.builder()
            .connection(connection)
            .name("events")
            .url("https://javan.example.com/hooks/events")
            .onBounced(true)
            .build());
        var bounced = new Suppression("javan-bounced", SuppressionArgs.builder()
            .connection(connection)
            .email("bounced@example.org")
            .reason("hard bounce")
            .expiresAt("2030-01-01T00:00:00Z")
            .build());

        ctx.export("subAccountId", subAccountId);
        ctx.export("dnsRecordCount", tenant.domain()
            .apply(d -> d.orElseThrow().dnsRecords())
            .applyValue(records -> records.size()));
        ctx.export("ciKeyLabel", ciKey.label());
        ctx.export("ciKeySecret", ciKey.secretKey());
        ctx.export("webhookSecret", hook.secret());
        ctx.export("suppressedEmail", bounced.email());
    }
}
