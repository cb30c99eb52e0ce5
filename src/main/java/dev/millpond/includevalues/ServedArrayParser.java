package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a poll's body: a JSON array whose elements are all 64-bit integers or all strings. Anything else — an
 * object, a float, a bool, a null element, nesting, a mix of integers and strings, trailing content — is a
 * failure, never a partial set: an allowlist built from half-understood input is worse than the last good one.
 */
final class ServedArrayParser {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    private ServedArrayParser() {
    }

    static ServedValues parse(byte[] body) throws PollFailure {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new PollFailure("response is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new PollFailure("response could not be read: " + e.getMessage(), e);
        }
        if (root == null || root.isMissingNode() || !root.isArray()) {
            throw new PollFailure("response is not a JSON array (got " + (root == null ? "nothing" : root.getNodeType())
                    + ")");
        }
        if (root.isEmpty()) {
            return ServedValues.empty();
        }
        FilterValues.Type type = null;
        Set<Object> values = new HashSet<>();
        for (JsonNode element : root) {
            Object value = scalar(element);
            FilterValues.Type elementType = FilterValues.Type.of(value);
            if (type == null) {
                type = elementType;
            } else if (type != elementType) {
                throw new PollFailure("response mixes integers and strings");
            }
            values.add(value);
        }
        return new ServedValues(Optional.of(type), values);
    }

    private static Object scalar(JsonNode element) throws PollFailure {
        if (element.isTextual()) {
            return element.textValue();
        }
        if (element.isIntegralNumber()) {
            if (!element.canConvertToLong()) {
                throw new PollFailure("response holds an integer outside the 64-bit range: " + element);
            }
            return element.longValue();
        }
        throw new PollFailure("response holds a " + element.getNodeType() + " element; only integers and strings"
                + " are allowlist values");
    }
}
