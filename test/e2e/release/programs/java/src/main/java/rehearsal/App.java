package rehearsal;

import com.pulumi.Pulumi;
import com.pulumi_txmail.txmail.Tenant;
import com.pulumi_txmail.txmail.TenantArgs;
import com.pulumi_txmail.txmail.inputs.TenantDomainArgs;
import com.pulumi_txmail.txmail.inputs.TenantKeyArgs;

/**
 * A new user's Java program for the release rehearsal (test/e2e/release): one Tenant through the
 * default provider (stack config). The txmail plugin is installed nowhere: the engine acquires it by
 * name, at the version and from the server the SDK's jar names.
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> new Tenant("rehearsal", TenantArgs.builder()
            .website("java.rehearsal.example.com")
            .domain(TenantDomainArgs.builder().domain("mail.java.rehearsal.example.com").build())
            .bootstrapKey(TenantKeyArgs.builder().ipAllowList("127.0.0.1").build())
            .build()));
    }
}
