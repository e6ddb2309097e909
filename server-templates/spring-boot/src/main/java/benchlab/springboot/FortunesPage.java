// /fortunes' page, TechEmpower's way: the stored fortunes plus one added at request time, sorted by
// message in the application, HTML-escaped, in the exact markup the contract gives (no newlines).

package benchlab.springboot;

import benchlab.springboot.Rows.Fortune;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

final class FortunesPage {
    private static final Fortune ADDED = new Fortune(0, "Additional fortune added at request time.");

    private FortunesPage() {}

    static byte[] render(List<Fortune> stored) {
        List<Fortune> fortunes = new ArrayList<>(stored);
        fortunes.add(ADDED);
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder(2048)
                .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune fortune : fortunes) {
            html.append("<tr><td>").append(fortune.id()).append("</td><td>");
            escape(fortune.message(), html);
            html.append("</td></tr>");
        }
        return html.append("</table></body></html>").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void escape(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
    }
}
