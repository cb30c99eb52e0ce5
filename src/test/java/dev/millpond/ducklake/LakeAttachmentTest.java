package dev.millpond.ducklake;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LakeAttachmentTest {

    @Test
    void attachErrorsLoseThePassword() {
        String message = "Unable to connect to Postgres at \"host=h port=1 dbname='d' user='u' password='s3cr\\'et x'\": "
                + "refused; again password=plain rest";
        String redacted = LakeAttachment.redactPassword(message);
        assertThat(redacted).doesNotContain("s3cr", "et x", "plain").contains("password=***", "user='u'", "rest");
    }
}
