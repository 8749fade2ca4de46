package dev.sluice.restd.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.slurm.SlurmVersion;
import dev.sluice.restd.dbv0038.Db38;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.ApiVersion;
import dev.sluice.restd.slurm.SlurmApi;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import dev.sluice.restd.v0038.Api38;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3 document of what this daemon serves: every route of {@link SlurmApi#ROUTES}
 * and {@link SlurmdbApi#ROUTES} in every {@link ApiVersion}, and those of slurmrestd 22.05's
 * v0.0.38 and dbv0.0.38 ({@link Api38#ROUTES}, {@link Db38#ROUTES}), with its path parameters,
 * body, answers and the two token headers. The answers name Slurm's own schema for that version
 * ({@code v0.0.44_openapi_job_info_resp}, {@code dbv0.0.38_account_info}); their fields are
 * those of Slurm's published document of the version, which this one refers to rather than
 * repeats.
 */
public final class OpenApiDocument {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private OpenApiDocument() {}

    public static ObjectNode build() {
        ObjectNode doc = F.objectNode();
        doc.put("openapi", "3.0.2");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Sluice REST API");
        info.put("description", "Slurm's REST API (slurmrestd) as sluice-restd serves it");
        info.put("version", SlurmVersion.RELEASE);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = F.objectNode();
        for (ApiVersion v : ApiVersion.values()) {
            String parser = "v" + v.number();
            add(paths, schemas, new Api(v.slurmPrefix(), parser, parser + "_", "slurm"), SlurmApi.routes(v));
            add(paths, schemas, new Api(v.slurmdbPrefix(), parser, parser + "_", "slurmdb"), SlurmdbApi.routes(v));
        }
        // 22.05's names carry their parser already (v0.0.38_pings, dbv0.0.38_account_info), and
        // its paths end without a slash (/slurm/v0.0.38/ping).
        add(paths, schemas, new Api(Api38.PREFIX, "v0.0.38", "", "slurm"), Api38.ROUTES);
        add(paths, schemas, new Api(Db38.PREFIX, "dbv0.0.38", "", "slurmdb"), Db38.ROUTES);
        ObjectNode components = doc.putObject("components");
        components.set("schemas", schemas);
        ObjectNode security = components.putObject("securitySchemes");
        security.putObject("user").put("type", "apiKey").put("in", "header").put("name", "X-SLURM-USER-NAME");
        security.putObject("token").put("type", "apiKey").put("in", "header").put("name", "X-SLURM-USER-TOKEN");
        doc.putArray("security").addObject().putArray("token");
        return doc;
    }

    /**
     * One API's routes as documented: under {@code prefix}, of data parser {@code parser}, each
     * schema name completed by {@code schemaPrefix}, tagged {@code tag}.
     */
    private record Api(String prefix, String parser, String schemaPrefix, String tag) {}

    private static void add(ObjectNode paths, ObjectNode schemas, Api api, List<Route> routes) {
        for (Route r : routes) {
            String template = api.schemaPrefix().isEmpty() ? r.template().replaceAll("/$", "") : r.template();
            ObjectNode path = paths.withObjectProperty(api.prefix() + template);
            ObjectNode op = path.putObject(r.method().toLowerCase(java.util.Locale.ROOT));
            op.putArray("tags").add(api.tag());
            op.put("summary", r.summary());
            op.put("operationId", operationId(api, r));
            ArrayNode params = F.arrayNode();
            Matcher m = PARAMETER.matcher(r.template());
            while (m.find()) {
                params.addObject()
                        .put("in", "path")
                        .put("name", m.group(1))
                        .put("required", true)
                        .putObject("schema")
                        .put("type", "string");
            }
            if (!params.isEmpty()) {
                op.set("parameters", params);
            }
            r.body()
                    .ifPresent(b -> op.putObject("requestBody")
                            .put("required", true)
                            .putObject("content")
                            .putObject("application/json")
                            .putObject("schema")
                            .put("$ref", ref(api, b, schemas)));
            ObjectNode responses = op.putObject("responses");
            String answer = ref(api, r.response(), schemas);
            for (String code : List.of("200", "default")) {
                responses
                        .putObject(code)
                        .put("description", code.equals("200") ? r.summary() : "an error, in the answer's errors")
                        .putObject("content")
                        .putObject("application/json")
                        .putObject("schema")
                        .put("$ref", answer);
            }
        }
    }

    /** A reference to {@code vX.Y.Z_NAME}, declared once as an object Slurm's document details. */
    private static String ref(Api api, String name, ObjectNode schemas) {
        String full = api.schemaPrefix() + name;
        if (!schemas.has(full)) {
            schemas.putObject(full)
                    .put("type", "object")
                    .put(
                            "description",
                            name + " of " + api.parser() + ", field for field as Slurm's OpenAPI document of "
                                    + "that version defines it");
        }
        return "#/components/schemas/" + full;
    }

    private static String operationId(Api api, Route r) {
        String words = (r.method() + "_" + api.tag() + "_" + api.parser() + "_" + r.template())
                .toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "_");
        return words.replaceAll("_+$", "");
    }
}
